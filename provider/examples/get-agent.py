# The get-agent example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

agent_id: str

# example begin
existing = voiceagent.get_agent(id=agent_id)
# example end
