# The phone-number example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

support: voiceagent.Agent

# example begin
voiceagent.PhoneNumber("main-line", number="+15550010001", inbound_agent=support.id)
# example end
