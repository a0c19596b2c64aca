# The get-usage example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
pulumi.export("minutes_this_month", voiceagent.get_usage_output().monthly_usage_minutes)
# example end
