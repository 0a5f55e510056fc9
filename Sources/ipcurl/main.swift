import IPCurlCLI

Commands.main()
