// Pulumi resources for the voice agent calling service: agents, voices, actions, webhooks, phone numbers and calls.
package voiceagent
