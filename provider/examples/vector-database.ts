// The vector-database example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import type * as pulumi from "@pulumi/pulumi";
import { VectorDatabase } from "pulumi-voiceagent";

declare const pineconeApiKey: pulumi.Output<string>;

// example begin
const faq = new VectorDatabase("faq", { index: "clinic-faq", apiKey: pineconeApiKey, apiEnvironment: "us-east-1-aws" });
// example end
