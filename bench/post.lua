-- wrk script for POST /api/messages in bench/run: one 20-byte message per
-- request, as the callgrind measurement sends with hey.
wrk.method = "POST"
wrk.body = '{"text":"hello world 20 bytes"}'
wrk.headers["Content-Type"] = "application/json"
