// Drives `agent-graph mcp` with the TypeScript MCP SDK's own client (@modelcontextprotocol/sdk).
//
// Usage: node mcp_client.mjs '<json>' where the JSON gives {command, args, cwd, env}: the server to start.
// The client lists the tools (so it checks every structured result against the tool's output schema, as
// clients built on this SDK do), then takes a Run of the weekly report from start to terminal: a stale
// record, a Gate Fact and a Gate outcome the agent may not set, an unknown Run, the Gate answered by the
// user through elicitation. It also lists and reads resources and resource templates. It prints one JSON
// object: every call with what came back (or what the SDK threw), for the Python test to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: server.command,
  args: server.args,
  cwd: server.cwd,
  env: server.env,
  stderr: "inherit",
});
const client = new Client({ name: "agent-graph-tests", version: "0" }, { capabilities: { elicitation: {} } });
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params.message);
  return { action: "accept", content: { decision: "approve", comment: "from the TypeScript client" } };
});

const calls = [];
async function call(name, args) {
  const entry = { tool: name, arguments: args };
  try {
    const result = await client.callTool({ name, arguments: args });
    entry.isError = result.isError === true;
    entry.structured = result.structuredContent ?? null;
    entry.texts = result.content.filter((part) => part.type === "text").map((part) => part.text);
  } catch (error) {
    entry.thrown = `${error.name}: ${error.message}`;
  }
  calls.push(entry);
  return entry;
}

async function other(label, action) {
  const entry = { request: label };
  try {
    entry.result = await action();
  } catch (error) {
    entry.thrown = `${error.name}: ${error.message}`;
    entry.code = error.code ?? null;
  }
  calls.push(entry);
  return entry;
}

await client.connect(transport);
await client.listTools();

const started = await call("start_run", {});
const runId = started.structured.runId;
const draft = await call("next_step", { runId });
for (const location of draft.structured.route.resources.required) {
  await call("read_resource", { runId, resourceId: location.id });
}
const record = { runId, node: "report/draft", outcome: "completed", revision: draft.structured.revision };
await call("record_outcome", { ...record, facts: { report: { digest: "sha256:5f0c" } } });
await call("record_outcome", { ...record, outcome: "partial" }); // stale: the Run moved on
await call("update_facts", { runId, facts: { report: { approved: true } } }); // a Gate's Fact
const waiting = await call("run_events", { runId });
await call("record_outcome", {
  runId,
  node: "report/approve",
  outcome: "completed",
  revision: draft.structured.revision,
});
await call("next_step", { runId: "no-such-run" });
const publish = await call("next_step", { runId }); // the Gate: the user approves through elicitation
if (publish.structured && publish.structured.record) {
  await call("record_outcome", {
    runId,
    node: publish.structured.record.node,
    outcome: "completed",
    revision: publish.structured.record.revision,
    facts: { publication: { url: "https://example.invalid/r" } },
  });
}
await call("next_step", { runId });
await call("run_events", { runId });

await other("resources/list", () => client.listResources());
await other("resources/read schema.draft.output", () =>
  client.readResource({ uri: "agent-graph://resource/schema.draft.output" }),
);
await other("resources/read missing", () => client.readResource({ uri: "agent-graph://resource/no.such" }));
await other("resources/templates/list", () => client.listResourceTemplates());

await client.close();
process.stdout.write(JSON.stringify({ calls, asked, eventsBeforeGate: waiting.structured?.total ?? null }));
