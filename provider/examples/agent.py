# The agent example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

voice: voiceagent.Voice

# example begin
agent = voiceagent.Agent("support", prompt="You answer support calls.", voice=voice.id)
# example end
