#!/bin/sh
# Stand-in status check for the polling-loop example. It contacts nothing and
# always answers "running": a real Provider would ask the export service once
# and print what it said. The host turns the answer into the export.status
# Fact; the Agent records `partial` while it is not ready.
set -eu
printf '{"export":{"status":"running"}}\n'
