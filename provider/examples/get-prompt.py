# The get-prompt example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

prompt_id: str

# example begin
booking = voiceagent.get_prompt(id=prompt_id)
# example end
