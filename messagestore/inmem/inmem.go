// Package inmem keeps greeter's messages in the process's memory: what it
// holds is lost when the process ends, and is not shared with other
// processes. It is the store greeter uses unless app.datasource.url names
// a PostgreSQL database.
package inmem
