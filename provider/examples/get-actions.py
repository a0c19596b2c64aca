# The get-actions example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
hang_ups = voiceagent.get_actions(type="action_end_conversation")
# example end
