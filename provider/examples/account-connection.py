# The account-connection example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

twilio_auth_token: pulumi.Output[str]

# example begin
twilio = voiceagent.AccountConnection("twilio",
    type=voiceagent.AccountConnectionType.CONNECTION_TWILIO,
    twilio_account_sid="AC0123456789abcdef0123456789abcdef",
    twilio_auth_token=twilio_auth_token,
    steering_pool=["+15550010001"])
# example end
