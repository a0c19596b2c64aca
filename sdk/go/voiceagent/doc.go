// Pulumi resources for the voice agent calling service: agents, voices, actions, webhooks, number bindings and calls, with a typed client.
package voiceagent
