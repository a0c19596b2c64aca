# The voice example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
voice = voiceagent.Voice("warm", voice_name="alloy", pitch=0, rate=1)
# example end
