package main

// The forwarding on its own, against a Node.js plugin stand-in served in this process: what the
// caller sends besides the request (metadata, deadline, cancellation) reaches the plugin, and what
// the plugin answers besides the response (headers, trailers, errors) comes back.

import (
	"context"
	"net"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

type seen struct {
	md       metadata.MD
	deadline time.Time
	hasOne   bool
}

type standIn struct {
	pulumirpc.UnimplementedResourceProviderServer
	configured chan seen
	creating   chan struct{}
	cancelled  chan error
}

func (s *standIn) Configure(ctx context.Context, _ *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	deadline, ok := ctx.Deadline()
	s.configured <- seen{md, deadline, ok}
	_ = grpc.SetHeader(ctx, metadata.Pairs("x-plugin-header", "h"))
	_ = grpc.SetTrailer(ctx, metadata.Pairs("x-plugin-trailer", "t"))
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
}

func (s *standIn) Create(ctx context.Context, _ *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	close(s.creating)
	<-ctx.Done()
	s.cancelled <- ctx.Err()
	return nil, ctx.Err()
}

func (s *standIn) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return nil, status.Error(codes.FailedPrecondition, "the group still holds identities")
}

// serve starts the stand-in and a front for it; ready says whether the stand-in has "printed its port".
// It returns the connection to the stand-in, for the test that makes it ready itself.
func serve(t *testing.T, ready bool) (*standIn, *child, *grpc.ClientConn, pulumirpc.ResourceProviderClient) {
	t.Helper()
	plugin := &standIn{configured: make(chan seen, 1), creating: make(chan struct{}), cancelled: make(chan error, 1)}
	pluginServer := grpc.NewServer()
	pulumirpc.RegisterResourceProviderServer(pluginServer, plugin)
	pluginListener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = pluginServer.Serve(pluginListener) }()
	t.Cleanup(pluginServer.Stop)

	toPlugin, err := grpc.NewClient("passthrough:///"+pluginListener.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	node := &child{path: "stand-in", ready: make(chan struct{}), exited: make(chan struct{}), tail: &tail{}}
	if ready {
		node.once.Do(func() { node.conn = toPlugin; close(node.ready) })
	}
	frontServer := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler((&front{child: node}).handle))
	frontListener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = frontServer.Serve(frontListener) }()
	t.Cleanup(frontServer.Stop)
	toFront, err := grpc.NewClient("passthrough:///"+frontListener.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = toFront.Close(); _ = toPlugin.Close() })
	return plugin, node, toPlugin, pulumirpc.NewResourceProviderClient(toFront)
}

func TestMetadataDeadlineHeadersAndTrailersPass(t *testing.T) {
	plugin, _, _, client := serve(t, true)
	deadline := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(metadata.AppendToOutgoingContext(context.Background(), "x-engine", "e"), deadline)
	defer cancel()
	var header, trailer metadata.MD
	response, err := client.Configure(ctx, &pulumirpc.ConfigureRequest{}, grpc.Header(&header), grpc.Trailer(&trailer))
	if err != nil {
		t.Fatal(err)
	}
	if !response.GetAcceptSecrets() || !response.GetSupportsPreview() {
		t.Fatalf("the response changed on its way: %v", response)
	}
	got := <-plugin.configured
	if v := got.md.Get("x-engine"); len(v) != 1 || v[0] != "e" {
		t.Fatalf("the plugin saw metadata %v", got.md)
	}
	// The deadline travels as a timeout (grpc-timeout, rounded on each hop): the plugin's is the
	// caller's within a minute; without forwarding it would have none.
	if !got.hasOne || got.deadline.Sub(deadline).Abs() > time.Minute {
		t.Fatalf("the plugin saw deadline %v (set: %v, caller's %v)", got.deadline, got.hasOne, deadline)
	}
	if v := header.Get("x-plugin-header"); len(v) != 1 || v[0] != "h" {
		t.Fatalf("headers came back as %v", header)
	}
	if v := trailer.Get("x-plugin-trailer"); len(v) != 1 || v[0] != "t" {
		t.Fatalf("trailers came back as %v", trailer)
	}
}

func TestCancellationReachesThePlugin(t *testing.T) {
	plugin, _, _, client := serve(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	answered := make(chan error, 1)
	go func() {
		_, err := client.Create(ctx, &pulumirpc.CreateRequest{})
		answered <- err
	}()
	<-plugin.creating
	cancel()
	if err := <-plugin.cancelled; err != context.Canceled {
		t.Fatalf("the plugin's call ended with %v", err)
	}
	if err := <-answered; status.Code(err) != codes.Canceled {
		t.Fatalf("the caller got %v", err)
	}
}

func TestThePluginsErrorsComeBackAsTheyAre(t *testing.T) {
	_, _, _, client := serve(t, true)
	_, err := client.Delete(context.Background(), &pulumirpc.DeleteRequest{})
	if status.Code(err) != codes.FailedPrecondition || status.Convert(err).Message() != "the group still holds identities" {
		t.Fatalf("the caller got %v", err)
	}
}

func TestCallsWaitForThePluginsPortAndTheCallersCancellation(t *testing.T) {
	plugin, node, toPlugin, client := serve(t, false)
	// Cancelled while waiting: the call ends, it does not hang.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := client.Configure(ctx, &pulumirpc.ConfigureRequest{}); status.Code(err) != codes.Canceled {
		t.Fatalf("a call cancelled while waiting got %v", err)
	}
	// Asked before the port: answered once it is printed.
	answered := make(chan error, 1)
	go func() {
		_, err := client.Configure(context.Background(), &pulumirpc.ConfigureRequest{})
		answered <- err
	}()
	// GetSchema does not wait for it.
	schemaAnswer, err := client.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{})
	if err != nil || schemaAnswer.GetSchema() != schema {
		t.Fatalf("GetSchema answered %v, %v", schemaAnswer, err)
	}
	node.once.Do(func() { node.conn = toPlugin; close(node.ready) })
	if err := <-answered; err != nil {
		t.Fatalf("the waiting call got %v", err)
	}
	<-plugin.configured
}
