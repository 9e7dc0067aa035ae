#!/bin/sh
# `mlds test --config /etc/mlds/config.json`, `mlds --version`: the packaged CLI with the packaged Node.js.
exec /opt/mlds/node/bin/node /opt/mlds/dist/launch.cjs "$@"
