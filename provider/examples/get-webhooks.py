# The get-webhooks example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
ended = voiceagent.get_webhooks(event="event_phone_call_ended")
# example end
