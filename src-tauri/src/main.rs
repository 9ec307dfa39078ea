fn main() {
    askfirst_lib::run()
}
