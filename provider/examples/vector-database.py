# The vector-database example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

pinecone_api_key: pulumi.Output[str]

# example begin
faq = voiceagent.VectorDatabase("faq", index="clinic-faq", api_key=pinecone_api_key, api_environment="us-east-1-aws")
# example end
