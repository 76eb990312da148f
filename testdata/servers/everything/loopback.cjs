// Preloaded (node --require) into the npm test server by the loader tests:
// the server listens on a port with no host, which means every interface;
// the tests want it on the loopback address only.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if ((typeof port === "number" || /^\d+$/.test(String(port))) && typeof args[1] !== "string") {
    args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
