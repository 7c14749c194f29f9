#!/usr/bin/env node
// The bin. The heap is set up before anything else loads: loading the SDKs' modules alone
// would already grow the young generation. Hence a dynamic import of the agent.
import "./runtime/heap-setup.js";
import "./runtime/compile-cache.js";

await import("./main.js");
