# The prompt example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
booking = voiceagent.Prompt("booking",
    content="You book visits for the clinic. Ask for the caller's email.",
    collect_fields=[voiceagent.PromptCollectFieldsArgs(name="email", label="Email address")])
# example end
