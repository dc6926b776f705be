// The component provider of ../provider/index.js as a plugin from source:
// the engine runs this folder with the SDK's run-plugin entry point, which
// loads this module; the provider serves on the engine's address, the
// program argument run-plugin passes on.
"use strict";
require("../provider/index.js");
