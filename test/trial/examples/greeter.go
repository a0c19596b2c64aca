// The trial kind's example, in Go.
// example begin
voiceagent.NewGreeter(ctx, "hello", &voiceagent.GreeterArgs{})
// example end
