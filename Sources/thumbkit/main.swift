print("thumbkit")
