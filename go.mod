module github.com/springport/greeter

go 1.26

require github.com/google/uuid v1.6.0 // indirect
