# The get-account-connection example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

account_connection_id: str

# example begin
twilio = voiceagent.get_account_connection(id=account_connection_id)
# example end
