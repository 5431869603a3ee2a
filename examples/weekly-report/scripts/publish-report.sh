#!/bin/sh
# Stand-in publisher for the weekly-report example. It changes nothing: a real
# Provider would upload the approved report here. It prints the Facts a host
# could record once it has confirmed the publication itself.
set -eu
week=$(date -u +%G-W%V)
echo "dry run: nothing was published for week $week" >&2
printf '{"publication":{"url":"https://reports.example.invalid/weekly/%s"}}\n' "$week"
