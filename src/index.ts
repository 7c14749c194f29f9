#!/usr/bin/env node
// The bin. The heap is set up before anything else loads: loading the SDKs' modules alone
// would already grow the young generation. Then, if asked, the first new session's Claude
// Code is started, so that it starts while the agent loads (launch-start.ts). Hence a
// dynamic import of the agent.
import "./runtime/heap-setup.js";
import "./runtime/compile-cache.js";
import { startAtLaunch } from "./claude/launch-start.js";

const argv = process.argv.slice(2);
const launched = startAtLaunch(argv, process.env);
const { main } = await import("./main.js");
main(argv, launched);
