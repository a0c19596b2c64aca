# The purchased-number example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

support: voiceagent.Agent

# example begin
main = voiceagent.PurchasedNumber("main", area_code="415", opts=pulumi.ResourceOptions(protect=True))
voiceagent.PhoneNumber("main-line", number=main.number, inbound_agent=support.id)
# example end
