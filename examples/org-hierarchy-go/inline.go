package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

// inlineRequest is one operation, as the tests' runner requests write it (the Python runner's
// twin, tools/pulumi-cli/inline_python.py).
type inlineRequest struct {
	Operation       string            `json:"operation"`
	Refresh         bool              `json:"refresh"`
	ExpectNoChanges bool              `json:"expectNoChanges"`
	Diff            bool              `json:"diff"`
	ProgramDir      string            `json:"programDir"`
	Project         string            `json:"project"`
	Stack           string            `json:"stack"`
	CliRoot         string            `json:"cliRoot"`
	EnvVars         map[string]string `json:"envVars"`
	Config          map[string]struct {
		Value  string `json:"value"`
		Secret bool   `json:"secret"`
	} `json:"config"`
	ResultFile string `json:"resultFile"`
}

type inlineResult struct {
	Code    int            `json:"code"`
	Stdout  string         `json:"stdout"`
	Stderr  string         `json:"stderr"`
	Outputs map[string]any `json:"outputs"`
}

// What the Automation API's error says of the command (its code is not exported).
var commandResult = regexp.MustCompile(`(?s)\ncode: (-?\d+)\nstdout: (.*)\nstderr: (.*)\n\z`)

func runInline(requestFile string) error {
	text, err := os.ReadFile(requestFile)
	if err != nil {
		return err
	}
	var request inlineRequest
	if err := json.Unmarshal(text, &request); err != nil {
		return fmt.Errorf("reading %s: %w", requestFile, err)
	}
	ctx := context.Background()
	cli, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: request.CliRoot, SkipVersionCheck: true})
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, request.Stack, request.Project, organization,
		auto.WorkDir(request.ProgramDir), auto.EnvVars(request.EnvVars), auto.SecretsProvider("passphrase"),
		auto.Pulumi(cli))
	if err != nil {
		return err
	}
	for key, value := range request.Config {
		err := stack.SetConfigWithOptions(ctx, key, auto.ConfigValue{Value: value.Value, Secret: value.Secret},
			&auto.ConfigOptions{Path: false})
		if err != nil {
			return err
		}
	}

	var result inlineResult
	switch request.Operation {
	case "preview":
		opts := []optpreview.Option{optpreview.Color("never")}
		if request.Refresh {
			opts = append(opts, optpreview.Refresh())
		}
		if request.ExpectNoChanges {
			opts = append(opts, optpreview.ExpectNoChanges())
		}
		if request.Diff {
			opts = append(opts, optpreview.Diff())
		}
		var preview auto.PreviewResult
		preview, err = stack.Preview(ctx, opts...)
		result = inlineResult{Stdout: preview.StdOut, Stderr: preview.StdErr}
	case "up":
		opts := []optup.Option{optup.Color("never")}
		if request.Refresh {
			opts = append(opts, optup.Refresh())
		}
		if request.Diff {
			opts = append(opts, optup.Diff())
		}
		var up auto.UpResult
		up, err = stack.Up(ctx, opts...)
		result = inlineResult{Stdout: up.StdOut, Stderr: up.StdErr}
	case "destroy":
		var destroy auto.DestroyResult
		destroy, err = stack.Destroy(ctx, optdestroy.Color("never"))
		result = inlineResult{Stdout: destroy.StdOut, Stderr: destroy.StdErr}
	default:
		return fmt.Errorf("operation %q: expected preview, up or destroy", request.Operation)
	}
	if err != nil {
		said := commandResult.FindStringSubmatch(err.Error())
		if said == nil {
			return err
		}
		code, _ := strconv.Atoi(said[1])
		result = inlineResult{Code: code, Stdout: said[2], Stderr: said[3]}
	}
	outputs, err := stack.Outputs(ctx)
	if err != nil {
		return errors.Join(errors.New("reading the stack's outputs"), err)
	}
	result.Outputs = map[string]any{}
	for key, output := range outputs {
		result.Outputs[key] = map[string]any{"value": output.Value, "secret": output.Secret}
	}
	answer, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return os.WriteFile(request.ResultFile, answer, 0o644)
}
