# The get-vector-databases example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
all = voiceagent.get_vector_databases()
# example end
