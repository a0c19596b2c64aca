# The get-vector-database example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

# example begin
faq = voiceagent.get_vector_database(index="clinic-faq")
# example end
