// Command org-hierarchy-go is the example organization as a Go program on the native provider's Go
// SDK. Run by a Go language host (`pulumi up` in this folder with a CLI release), it is a plain
// Pulumi program. Run as `org-hierarchy-go inline REQUEST.json`, it runs one operation of the same
// program through Go's Automation API as an inline program, this process its language runtime: the
// way the tests run it, since no Go language host is built here (the module proxy does not serve it).
package main

import (
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "inline" {
		if err := runInline(os.Args[2]); err != nil {
			os.Stderr.WriteString("org-hierarchy-go: " + err.Error() + "\n")
			os.Exit(1)
		}
		return
	}
	pulumi.Run(organization)
}
