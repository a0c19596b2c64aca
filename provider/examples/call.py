# The call example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

agent: voiceagent.Agent

# example begin
voiceagent.Call("smoke-call", from_number="+15550010001", to_number="+15557654321", agent=agent.id,
    allowed_destinations=["+1555*"])
# example end
