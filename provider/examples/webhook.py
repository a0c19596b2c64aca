# The webhook example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
hook = voiceagent.Webhook("events", url="https://hooks.example.com/va",
    subscriptions=[voiceagent.WebhookEvent.MESSAGE])
# example end
