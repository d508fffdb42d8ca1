// wrk's Lua for load made of POSTs, each from a new address (the thread's number and a
// counter make it unique) or all from one: shared by the signup and people benches.

/** Lua posting JSON to `path`; `bodyLua` is a Lua expression that may use `email`. */
export function postsScript(path, bodyLua, { fixed } = {}) {
  const address = fixed ? `"${fixed}"` : '"w" .. id .. "-" .. n .. "@example.org"';
  return `local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
local n = 0
function request()
  n = n + 1
  local email = ${address}
  return wrk.format("POST", "${path}", {["Content-Type"] = "application/json"}, ${bodyLua})
end
`;
}
