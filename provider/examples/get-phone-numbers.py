# The get-phone-numbers example (the schema's and the Python SDK's): the lines between the markers; the rest lets it compile.
import pulumi
import pulumi_voiceagent as voiceagent

agent: voiceagent.Agent

# example begin
free = voiceagent.get_phone_numbers(active=True, bound=False)
voiceagent.PhoneNumber("main-line", number=free.numbers[0].number, inbound_agent=agent.id)
# example end
