#!/bin/sh
# Prints the status of the affected service as JSON. A real Provider would ask
# its status page; this one answers with a fixed status so that it runs anywhere.
printf '{"service": "checkout", "state": "degraded", "since": "2026-03-02T09:14:00Z"}\n'
