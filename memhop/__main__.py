from memhop.cli.app import main

main()
