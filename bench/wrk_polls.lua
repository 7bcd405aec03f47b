-- wrk script for bench/load_bench.py: phone polls, and scorekeepers' taps in between.
--
-- Run as: wrk ... -s bench/wrk_polls.lua http://127.0.0.1:PORT -- SCENARIO.lua
-- SCENARIO.lua (written by load_bench.py) returns a table:
--   paths         poll paths to rotate over
--   versions      path -> version each poll starts from (nil: polls carry no version)
--   entry_paths   tap paths (POST entry) to rotate over
--   post_every    one request in this many is a tap (0: none)
--   run           a word that makes this run's nonces unique
--
-- Each wrk thread has its own Lua state: setup() numbers the threads (for nonces) and
-- keeps them so done() can add up the status counts that response() kept per thread.
-- Every line done() prints starts with "BENCH " for load_bench.py to read.

local paths, entry_paths, post_every, run
-- A poll path's version (a table's is "night.table"); a poll that gets a 200 fragment
-- adopts the version in it, as a phone does.
versions = nil
local post_headers = {
  ["Content-Type"] = "application/x-www-form-urlencoded",
  ["Accept"] = "application/json",
}
-- A phone's poll comes from htmx, which says so (a table's kept board goes only to htmx).
local poll_headers = { ["HX-Request"] = "true" }
counter = 0
posts = 0
codes = {}
json = { ok = 0, refused = 0, board = 0 }
adopted = 0

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function init(args)
  local scenario = dofile(args[1])
  paths = scenario.paths
  versions = scenario.versions
  entry_paths = scenario.entry_paths or { "/" }
  post_every = scenario.post_every or 0
  run = scenario.run or "0"
  counter = tid * 7919  -- threads start at different tables
end

function request()
  counter = counter + 1
  if post_every > 0 and counter % post_every == 0 then
    posts = posts + 1
    local path = entry_paths[(counter + posts) % #entry_paths + 1]
    local tap = (posts % 2 == 0) and "points%3A1" or "miss"
    local body = "nonce=lb" .. run .. "-" .. tid .. "-" .. posts .. "&seat=1&round=1&tap=" .. tap
    return wrk.format("POST", path, post_headers, body)
  end
  local path = paths[counter % #paths + 1]
  if versions then
    path = path .. "?v=" .. (versions[path] or "0")
  end
  return wrk.format("GET", path, poll_headers)
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
  if body:sub(1, 1) == "{" then
    if status == 200 then
      json.ok = json.ok + 1
      -- A stored tap's answer carries its table's board (in JSON, quotes escaped): the
      -- phone that tapped shows it and polls on from its version, as bunco.js does.
      local p, v = body:match('hx%-get=\\"([^"?\\]+)%?v=([%d%.]+)\\"')
      if p and versions then
        json.board = json.board + 1
        versions[p] = v
      end
    else
      json.refused = json.refused + 1
    end
  elseif status == 200 and versions then
    local p, v = body:match('hx%-get="([^"?]+)%?v=([%d%.]+)"')
    if p and versions[p] ~= v then
      versions[p] = v
      adopted = adopted + 1
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH requests %d\n", summary.requests))
  io.write(string.format("BENCH duration_us %d\n", summary.duration))
  io.write(string.format("BENCH p50_us %d\n", latency:percentile(50)))
  io.write(string.format("BENCH p99_us %d\n", latency:percentile(99)))
  io.write(string.format("BENCH max_us %d\n", latency.max))
  io.write(string.format("BENCH err_connect %d\n", e.connect))
  io.write(string.format("BENCH err_read %d\n", e.read))
  io.write(string.format("BENCH err_write %d\n", e.write))
  io.write(string.format("BENCH err_timeout %d\n", e.timeout))
  io.write(string.format("BENCH err_status %d\n", e.status))
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("codes")) do
      io.write(string.format("BENCH code_%d %d\n", status, n))
    end
    local j = thread:get("json")
    io.write(string.format("BENCH json_ok %d\n", j.ok))
    io.write(string.format("BENCH json_refused %d\n", j.refused))
    io.write(string.format("BENCH json_board %d\n", j.board))
    io.write(string.format("BENCH adopted %d\n", thread:get("adopted")))
  end
end
