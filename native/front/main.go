// The plugin archive's pulumi-resource-platform: a small front that prints its port at once and
// answers what it knows from the build (GetPluginInfo, GetSchema, Handshake), while the Node.js
// plugin beside it (pulumi-resource-platform-node, native/plugin.ts) starts in the background;
// every other call is passed to that plugin as it came, bytes, metadata, deadline and
// cancellation included. The engine waits for a plugin's port before anything else and every
// `pulumi` command starts the plugin, so the front keeps Node.js's start-up out of that wait.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The schema the Node.js plugin answers (native/schema.ts), written into this folder by the build.
//
//go:embed schema.json
var schema string

// The package's version, set by the build (-ldflags -X main.version=…).
var version = "0.0.0-dev"

// Set in the Node.js plugin's environment: it then ends when its stdin closes (native/plugin.ts),
// so it never outlives the front, however the front ends.
const childEnv = "PLATFORM_PULUMI_PLUGIN_FRONT"

// How long the Node.js plugin may take to print its port before the calls waiting on it fail.
const childStartLimit = 60 * time.Second

const service = "/pulumirpc.ResourceProvider/"

func childName() string {
	if runtime.GOOS == "windows" {
		return "pulumi-resource-platform-node.exe"
	}
	return "pulumi-resource-platform-node"
}

func main() {
	self, err := os.Executable()
	if err != nil {
		fail(fmt.Errorf("finding its own executable: %w", err))
	}
	node := startChild(filepath.Join(filepath.Dir(self), childName()), os.Args[1:])
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		node.kill()
		fail(err)
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(rawCodec{}),
		grpc.UnknownServiceHandler((&front{child: node}).handle),
		grpc.MaxRecvMsgSize(maxMessage),
		grpc.MaxSendMsgSize(maxMessage),
	)
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		node.kill()
		os.Exit(1)
	}()
	err = server.Serve(listener)
	node.kill()
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "pulumi-resource-platform: %v\n", err)
	os.Exit(1)
}

// Pulumi's own limit for provider messages (a schema or a state can be large).
const maxMessage = 400 * 1024 * 1024

// rawCodec carries messages as the bytes they came in: the front reads only the calls it answers.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	if b, ok := v.(*[]byte); ok {
		return *b, nil
	}
	if m, ok := v.(proto.Message); ok {
		return proto.Marshal(m)
	}
	return nil, fmt.Errorf("rawCodec: cannot marshal %T", v)
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	b, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("rawCodec: cannot unmarshal into %T", v)
	}
	*b = append((*b)[:0], data...)
	return nil
}

// "proto": the wire's content type stays application/grpc+proto.
func (rawCodec) Name() string { return "proto" }

type front struct{ child *child }

func (f *front) handle(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(stream)
	switch method {
	case service + "GetSchema":
		return answer(stream, &pulumirpc.GetSchemaRequest{}, func(request *pulumirpc.GetSchemaRequest) (proto.Message, error) {
			// As @pulumi/pulumi's server answers (provider/server.js getSchema).
			if request.GetVersion() != 0 {
				return nil, status.Errorf(codes.Unknown, "unsupported schema version %d", request.GetVersion())
			}
			return &pulumirpc.GetSchemaResponse{Schema: schema}, nil
		})
	case service + "GetPluginInfo":
		return answer(stream, &emptypb.Empty{}, func(*emptypb.Empty) (proto.Message, error) {
			return &pulumirpc.PluginInfo{Version: version}, nil
		})
	case service + "Handshake":
		// @pulumi/pulumi's server has no Handshake (the engine then goes on without it,
		// provider_plugin.go handshake), and the engine asks it before anything else: answered
		// here, no command waits for Node.js to start only to hear that.
		return status.Error(codes.Unimplemented, "The server does not implement the method handshake")
	}
	return f.forward(method, stream)
}

// answer reads one request of a unary call and sends what reply gives.
func answer[R proto.Message](stream grpc.ServerStream, request R, reply func(R) (proto.Message, error)) error {
	var data []byte
	if err := stream.RecvMsg(&data); err != nil {
		return err
	}
	if err := proto.Unmarshal(data, request); err != nil {
		return status.Errorf(codes.InvalidArgument, "reading the request: %v", err)
	}
	response, err := reply(request)
	if err != nil {
		return err
	}
	return stream.SendMsg(response)
}

// Headers grpc sets itself on each side: not passed on as metadata.
func passedOn(md metadata.MD) metadata.MD {
	out := metadata.MD{}
	for key, values := range md {
		if strings.HasPrefix(key, ":") || strings.HasPrefix(key, "grpc-") ||
			key == "content-type" || key == "user-agent" || key == "te" {
			continue
		}
		out[key] = append([]string(nil), values...)
	}
	return out
}

// forward passes one call, of any shape, to the Node.js plugin and its answer back.
func (f *front) forward(method string, in grpc.ServerStream) error {
	conn, err := f.child.wait(in.Context())
	if err != nil {
		return err
	}
	md, _ := metadata.FromIncomingContext(in.Context())
	// The caller's deadline and cancellation come with its context.
	ctx, cancel := context.WithCancel(metadata.NewOutgoingContext(in.Context(), passedOn(md)))
	defer cancel()
	out, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method,
		grpc.ForceCodec(rawCodec{}))
	if err != nil {
		return f.child.explain(err)
	}
	go func() {
		for {
			var message []byte
			if err := in.RecvMsg(&message); err != nil {
				if errors.Is(err, io.EOF) {
					_ = out.CloseSend()
				} else {
					cancel()
				}
				return
			}
			if err := out.SendMsg(&message); err != nil {
				return
			}
		}
	}()
	if header, err := out.Header(); err == nil && len(header) > 0 {
		if err := in.SetHeader(header); err != nil {
			return err
		}
	}
	for {
		var message []byte
		err := out.RecvMsg(&message)
		if errors.Is(err, io.EOF) {
			in.SetTrailer(out.Trailer())
			return nil
		}
		if err != nil {
			in.SetTrailer(out.Trailer())
			return f.child.explain(err)
		}
		if err := in.SendMsg(&message); err != nil {
			return err
		}
	}
}

// child is the Node.js plugin: started at once, ready when it prints its port.
type child struct {
	path   string
	cmd    *exec.Cmd
	ready  chan struct{}
	conn   *grpc.ClientConn
	err    error // why it cannot serve; set before ready closes
	exited chan struct{}
	state  string // how it exited; set before exited closes
	tail   *tail
	once   sync.Once
	stdin  io.WriteCloser
}

func startChild(path string, args []string) *child {
	c := &child{path: path, ready: make(chan struct{}), exited: make(chan struct{}), tail: &tail{}}
	c.cmd = exec.Command(path, args...)
	c.cmd.Env = append(os.Environ(), childEnv+"=1")
	c.cmd.Stderr = io.MultiWriter(os.Stderr, c.tail)
	stdout, err := c.cmd.StdoutPipe()
	if err == nil {
		// Held open and never written: the plugin ends when it closes, as it does when the front ends.
		c.stdin, err = c.cmd.StdinPipe()
	}
	if err == nil {
		err = c.cmd.Start()
	}
	if err != nil {
		c.state = "not started"
		close(c.exited)
		c.failed(fmt.Errorf("could not start: %w", err))
		return c
	}
	go c.readPort(stdout)
	go c.watch()
	time.AfterFunc(childStartLimit, func() {
		if c.failed(fmt.Errorf("printed no port within %v", childStartLimit)) {
			c.kill()
		}
	})
	return c
}

func (c *child) readPort(stdout io.Reader) {
	lines := bufio.NewReader(stdout)
	line, err := lines.ReadString('\n')
	port, convErr := strconv.Atoi(strings.TrimSpace(line))
	switch {
	case err != nil && line == "":
		// Its exit says why (watch).
		return
	case convErr != nil || port <= 0:
		c.failed(fmt.Errorf("printed %q where its port belongs", strings.TrimSpace(line)))
	default:
		conn, dialErr := grpc.NewClient(fmt.Sprintf("passthrough:///127.0.0.1:%d", port),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage), grpc.MaxCallSendMsgSize(maxMessage)))
		if dialErr != nil {
			c.failed(dialErr)
		} else {
			// Connected now, not on the first call: the engine's first Configure waits for no dial.
			conn.Connect()
			c.once.Do(func() {
				c.conn = conn
				close(c.ready)
			})
		}
	}
	// What it prints after its port goes where the engine logs a plugin's output.
	_, _ = io.Copy(os.Stdout, lines)
}

func (c *child) watch() {
	err := c.cmd.Wait()
	if err != nil {
		c.state = err.Error()
	} else {
		c.state = "exit status 0"
	}
	close(c.exited)
	c.failed(fmt.Errorf("exited (%s) before printing its port", c.state))
}

// failed settles the start as failed unless it is settled; true when this call settled it.
func (c *child) failed(err error) bool {
	settled := false
	c.once.Do(func() {
		c.err = status.Errorf(codes.Unavailable, "the platform provider's Node.js plugin %s %v%s", c.path, err, c.tail.words())
		close(c.ready)
		settled = true
	})
	return settled
}

func (c *child) wait(ctx context.Context) (*grpc.ClientConn, error) {
	select {
	case <-c.ready:
		return c.conn, c.err
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
}

// explain names the Node.js plugin and its last words when a call failed because it is gone.
func (c *child) explain(err error) error {
	if status.Code(err) != codes.Unavailable {
		return err
	}
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
		return err
	}
	return status.Errorf(codes.Unavailable, "the platform provider's Node.js plugin %s exited (%s) during the call (%v)%s",
		c.path, c.state, status.Convert(err).Message(), c.tail.words())
}

// kill ends the Node.js plugin and waits (a while) until it has: the engine, waiting for the
// front to end, then finds no process of the plugin left.
func (c *child) kill() {
	if c.cmd.Process == nil {
		return
	}
	_ = c.cmd.Process.Kill()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
	}
}

// tail keeps the end of the Node.js plugin's stderr for the errors that name it.
type tail struct {
	mu   sync.Mutex
	data []byte
}

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.data = append(t.data, p...)
	if len(t.data) > tailBytes {
		t.data = append([]byte(nil), t.data[len(t.data)-tailBytes:]...)
	}
	return len(p), nil
}

func (t *tail) words() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := strings.TrimSpace(string(t.data))
	if text == "" {
		return "; it wrote nothing to stderr"
	}
	return "; its stderr ends:\n" + text
}
