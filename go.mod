module github.com/springport/greeter

go 1.26

require github.com/google/uuid v1.6.0

require github.com/coder/websocket v1.8.15
