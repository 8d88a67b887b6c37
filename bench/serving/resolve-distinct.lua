-- wrk script: GET /v1/resolve for a different URL on every request (widget 1, 2, 3, ... with a per-thread
-- offset), so no answer is ever asked again: the resolve path without its answer cache (run.sh's
-- "resolve, distinct URLs"). The Authorization and User-Agent headers come from wrk's -H options.
local threads = 0
function setup(thread)
    thread:set("offset", threads * 100000000)
    threads = threads + 1
end

local counter = 0
function request()
    counter = counter + 1
    return wrk.format(nil, "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F" .. (offset + counter) .. "%3Ftab%3Dreviews")
end
