# The get-account-connections example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
twilio = voiceagent.get_account_connections(type="account_connection_twilio")
# example end
