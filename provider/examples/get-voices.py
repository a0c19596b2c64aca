# The get-voices example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
azure = voiceagent.get_voices(type="voice_azure")
# example end
