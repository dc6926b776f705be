// Serves, passes the first resources, then dies while checking the one
// named "boom" (issue 49, defect 16): a pack that failed mid-run.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-midcrash-pack", {
  policies: [
    {
      name: "dies-on-boom",
      description: "Exits the pack on the resource named boom.",
      enforcementLevel: "advisory",
      validateResource: (args) => {
        if (args.name === "boom") {
          console.error("mp-midcrash-pack: giving up on boom");
          process.exit(5);
        }
      },
    },
  ],
});
