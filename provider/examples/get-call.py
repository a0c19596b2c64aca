# The get-call example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

call_id: str

# example begin
pulumi.export("callStatus", voiceagent.get_call_output(id=call_id).status)
# example end
