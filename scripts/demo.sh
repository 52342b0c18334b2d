#!/usr/bin/env bash
echo "demo: not yet written" >&2; exit 1
