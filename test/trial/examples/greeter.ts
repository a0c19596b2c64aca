// The trial kind's example: the codegen reads the lines between the markers (it is no part of the package, so nothing compiles it).
// example begin
new Greeter("hello", { prompt: "Greet the caller.", voice: voice.id });
// example end
