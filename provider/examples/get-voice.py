# The get-voice example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
alloy = voiceagent.get_voice(voice_name="alloy")
voiceagent.Agent("support", prompt="You answer support calls.", voice=alloy.id)
# example end
