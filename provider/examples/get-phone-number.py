# The get-phone-number example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
line = voiceagent.get_phone_number(number="+15550010001")
# example end
