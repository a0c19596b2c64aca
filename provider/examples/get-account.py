# The get-account example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
pulumi.export("owner", voiceagent.get_account_output().user_id)
# example end
