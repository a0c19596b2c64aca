# The trial kind's example, in Python.
# example begin
voiceagent.Greeter("hello", prompt="Greet the caller.", voice=voice.id)
# example end
