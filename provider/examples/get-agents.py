# The get-agents example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

alloy: voiceagent.GetVoiceResult

# example begin
speaking = voiceagent.get_agents(voice=alloy.id)
# example end
