# The action example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
hang_up = voiceagent.Action("end-call", type=voiceagent.ActionType.END_CONVERSATION)
# example end
