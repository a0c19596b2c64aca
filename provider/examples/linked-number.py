# The linked-number example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

support: voiceagent.Agent
twilio_connection_id: str

# example begin
voiceagent.LinkedNumber(
    "own-line",
    number="+15550020002",
    telephony_account_connection=twilio_connection_id,
    inbound_agent=support.id,
)
# example end
